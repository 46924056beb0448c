/** Demo catalogue: real-looking Swedish venues with addresses and coordinates (fictional businesses). */
export interface SeedCity {
  name: string;
  lat: number;
  lng: number;
  venues: Array<[name: string, street: string]>;
}

export const SEED_CITIES: SeedCity[] = [
  { name: 'Stockholm', lat: 59.3293, lng: 18.0686, venues: [
    ['Kvarnen Quizbar', 'Tjärhovsgatan 4'], ['Pubologi Söder', 'Götgatan 58'], ['The Liffey', 'Stora Nygatan 40'],
    ['Bishops Arms Odenplan', 'Odengatan 67'], ['Akkurat', 'Hornsgatan 18'], ['Söders Hjärta', 'Bellmansgatan 22'] ] },
  { name: 'Göteborg', lat: 57.7089, lng: 11.9746, venues: [
    ['Ölstugan Tullen', 'Kastellgatan 17'], ['Haket', 'Första Långgatan 32'], ['Bishops Arms Järntorget', 'Järntorget 4'],
    ['Brewers Beer Bar', 'Kungsgatan 2'], ['Kafé Magasinet', 'Tredje Långgatan 9'] ] },
  { name: 'Malmö', lat: 55.605, lng: 13.0038, venues: [
    ['Victors', 'Lilla Torg 1'], ['Grand Öl & Mat', 'Monbijougatan 17'], ['Pickwick Pub', 'Malmborgsgatan 3'],
    ['Mello Yello', 'Lilla Torg 7'], ['Far i hatten', 'Folkets Park'] ] },
  { name: 'Mölndal', lat: 57.6554, lng: 12.0138, venues: [
    ['Kvarnbyns Pub', 'Kvarnbygatan 12'], ['Mölndals Bryggeri', 'Göteborgsvägen 70'], ['Pub Kraftstationen', 'Forsåkersgatan 5'] ] },
  { name: 'Uppsala', lat: 59.8586, lng: 17.6389, venues: [
    ['Williams Pub', 'Åsgränd 5'], ['Pub 19', 'Svartbäcksgatan 19'], ['Hijazz', 'Dragarbrunnsgatan 23'],
    ['Katalin', 'Godsmagasinet, Östra Station'], ['Stationen', 'Olof Palmes plats 6'] ] },
  { name: 'Västerås', lat: 59.6099, lng: 16.5448, venues: [
    ['Bishops Arms Västerås', 'Stora Torget 4'], ['Pitchers Västerås', 'Stora gatan 32'], ['Ölkällaren', 'Kopparbergsvägen 1'],
    ['Limone', 'Kungsgatan 5'], ['Kalle på Spången', 'Kungsgatan 2'] ] },
  { name: 'Örebro', lat: 59.2753, lng: 15.2134, venues: [
    ['Bishops Arms Örebro', 'Kungsgatan 11'], ['Pubben Bagarstugan', 'Engelbrektsgatan 8'], ['Ölstugan Örebro', 'Järntorgsgatan 3'],
    ['Harrys Örebro', 'Hamnplan 1'], ['Olearys Örebro', 'Drottninggatan 20'] ] },
  { name: 'Umeå', lat: 63.8258, lng: 20.263, venues: [
    ['Rex Bar', 'Rådhustorget 3'], ['Skeppet', 'Storgatan 40'], ['Pub Rött', 'Kungsgatan 49'],
    ['Lottas Krog', 'Nygatan 22'], ['Bishops Arms Umeå', 'Storgatan 46'] ] },
  { name: 'Lund', lat: 55.7047, lng: 13.191, venues: [
    ['Ölhallen Lund', 'Stora Södergatan 2'], ['John Bull Pub', 'Bantorget 2'], ['Inferno', 'Clemenstorget 4'] ] },
  { name: 'Linköping', lat: 58.4108, lng: 15.6214, venues: [
    ['Pub Ågatan', 'Ågatan 39'], ['Harrys Linköping', 'Ågatan 45'], ['Flamman', 'Hantverkaregatan 5'] ] },
];

export const QUIZMASTERS = ['Anna Lindqvist', 'Erik Johansson', 'Sara Berg', 'Johan "Quiz-Jonte" Nilsson', 'Maria Ek', 'Ahmed Karimi', 'Lisa Holm', 'Peter Strand'];

/** Every category of spec 01 §3, so every display name appears in the demo. */
export const CATEGORY_CYCLE: Array<[category: string, theme: string | null]> = [
  ['allmänbildning', null], ['tema', 'Musik'], ['allmänbildning', null], ['tema', 'Sport'], ['tema', 'Film & TV'],
  ['allmänbildning', null], ['tema', '80-talet'], ['musikquiz', null], ['sportquiz', null], ['filmquiz', null],
  ['allmänquiz', null], ['general', null], ['mixed', null], ['theme', 'Geografi'],
];
