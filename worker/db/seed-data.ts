/**
 * Demo catalogue: real-looking Swedish venues (fictional businesses) at real street addresses, each with
 * approximate coordinates of that address (to the block). City lat/lng is the town centre.
 */
export interface SeedCity {
  name: string;
  lat: number;
  lng: number;
  venues: Array<[name: string, street: string, lat: number, lng: number]>;
}

export const SEED_CITIES: SeedCity[] = [
  {
    name: 'Stockholm',
    lat: 59.3293,
    lng: 18.0686,
    venues: [
      ['Kvarnen Quizbar', 'Tjärhovsgatan 4', 59.3155, 18.0716],
      ['Pubologi Söder', 'Götgatan 58', 59.3139, 18.0727],
      ['The Liffey', 'Stora Nygatan 40', 59.3236, 18.0687],
      ['Bishops Arms Odenplan', 'Odengatan 67', 59.343, 18.049],
      ['Akkurat', 'Hornsgatan 18', 59.3195, 18.0645],
      ['Söders Hjärta', 'Bellmansgatan 22', 59.3178, 18.0633],
    ],
  },
  {
    name: 'Göteborg',
    lat: 57.7089,
    lng: 11.9746,
    venues: [
      ['Ölstugan Tullen', 'Kastellgatan 17', 57.6985, 11.9565],
      ['Haket', 'Första Långgatan 32', 57.699, 11.949],
      ['Bishops Arms Järntorget', 'Järntorget 4', 57.6999, 11.9529],
      ['Brewers Beer Bar', 'Kungsgatan 2', 57.704, 11.9585],
      ['Kafé Magasinet', 'Tredje Långgatan 9', 57.6988, 11.9505],
    ],
  },
  {
    name: 'Malmö',
    lat: 55.605,
    lng: 13.0038,
    venues: [
      ['Victors', 'Lilla Torg 1', 55.6044, 12.9985],
      ['Grand Öl & Mat', 'Monbijougatan 17', 55.5925, 13.0085],
      ['Pickwick Pub', 'Malmborgsgatan 3', 55.6035, 13.0012],
      ['Mello Yello', 'Lilla Torg 7', 55.6046, 12.999],
      ['Far i hatten', 'Folkets Park', 55.594, 13.011],
    ],
  },
  {
    name: 'Mölndal',
    lat: 57.6554,
    lng: 12.0138,
    venues: [
      ['Kvarnbyns Pub', 'Kvarnbygatan 12', 57.656, 12.015],
      ['Mölndals Bryggeri', 'Göteborgsvägen 70', 57.6612, 12.0085],
      ['Pub Kraftstationen', 'Forsåkersgatan 5', 57.6545, 12.019],
    ],
  },
  {
    name: 'Uppsala',
    lat: 59.8586,
    lng: 17.6389,
    venues: [
      ['Williams Pub', 'Åsgränd 5', 59.8565, 17.633],
      ['Pub 19', 'Svartbäcksgatan 19', 59.861, 17.641],
      ['Hijazz', 'Dragarbrunnsgatan 23', 59.859, 17.6415],
      ['Katalin', 'Godsmagasinet, Östra Station', 59.8575, 17.6495],
      ['Stationen', 'Olof Palmes plats 6', 59.8583, 17.646],
    ],
  },
  {
    name: 'Västerås',
    lat: 59.6099,
    lng: 16.5448,
    venues: [
      ['Bishops Arms Västerås', 'Stora Torget 4', 59.61, 16.544],
      ['Pitchers Västerås', 'Stora gatan 32', 59.611, 16.5455],
      ['Ölkällaren', 'Kopparbergsvägen 1', 59.614, 16.542],
      ['Limone', 'Kungsgatan 5', 59.6085, 16.547],
      ['Kalle på Spången', 'Kungsgatan 2', 59.6082, 16.5462],
    ],
  },
  {
    name: 'Örebro',
    lat: 59.2753,
    lng: 15.2134,
    venues: [
      ['Bishops Arms Örebro', 'Kungsgatan 11', 59.271, 15.213],
      ['Pubben Bagarstugan', 'Engelbrektsgatan 8', 59.274, 15.211],
      ['Ölstugan Örebro', 'Järntorgsgatan 3', 59.2725, 15.209],
      ['Harrys Örebro', 'Hamnplan 1', 59.2745, 15.223],
      ['Olearys Örebro', 'Drottninggatan 20', 59.273, 15.21],
    ],
  },
  {
    name: 'Umeå',
    lat: 63.8258,
    lng: 20.263,
    venues: [
      ['Rex Bar', 'Rådhustorget 3', 63.8255, 20.261],
      ['Skeppet', 'Storgatan 40', 63.827, 20.264],
      ['Pub Rött', 'Kungsgatan 49', 63.8255, 20.266],
      ['Lottas Krog', 'Nygatan 22', 63.828, 20.26],
      ['Bishops Arms Umeå', 'Storgatan 46', 63.8272, 20.2665],
    ],
  },
  {
    name: 'Lund',
    lat: 55.7047,
    lng: 13.191,
    venues: [
      ['Ölhallen Lund', 'Stora Södergatan 2', 55.7025, 13.1925],
      ['John Bull Pub', 'Bantorget 2', 55.704, 13.188],
      ['Inferno', 'Clemenstorget 4', 55.7065, 13.1895],
    ],
  },
  {
    name: 'Linköping',
    lat: 58.4108,
    lng: 15.6214,
    venues: [
      ['Pub Ågatan', 'Ågatan 39', 58.4115, 15.625],
      ['Harrys Linköping', 'Ågatan 45', 58.411, 15.6255],
      ['Flamman', 'Hantverkaregatan 5', 58.4125, 15.6205],
    ],
  },
];

export const QUIZMASTERS = [
  'Anna Lindqvist',
  'Erik Johansson',
  'Sara Berg',
  'Johan "Quiz-Jonte" Nilsson',
  'Maria Ek',
  'Ahmed Karimi',
  'Lisa Holm',
  'Peter Strand',
];

/** Every category of spec 01 §3, so every display name appears in the demo. */
export const CATEGORY_CYCLE: Array<[category: string, theme: string | null]> = [
  ['allmänbildning', null],
  ['tema', 'Musik'],
  ['allmänbildning', null],
  ['tema', 'Sport'],
  ['tema', 'Film & TV'],
  ['allmänbildning', null],
  ['tema', '80-talet'],
  ['musikquiz', null],
  ['sportquiz', null],
  ['filmquiz', null],
  ['allmänquiz', null],
  ['general', null],
  ['mixed', null],
  ['theme', 'Geografi'],
];
