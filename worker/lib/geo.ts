/**
 * Distances for the listing's near mode. Pure functions, shared by the worker and the web app.
 * Great-circle distance by the haversine formula on a sphere of the mean Earth radius (IUGG, 6 371 km):
 * within Sweden at most ~0.5 % from the ellipsoid, far below what a card shows.
 */
const EARTH_RADIUS_KM = 6371.0088;
const rad = (deg: number) => (deg * Math.PI) / 180;

export interface LatLng {
  lat: number;
  lng: number;
}

export function haversineKm(a: LatLng, b: LatLng): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The great-circle distance between two points at least `dLatDeg` degrees of latitude apart is at least
 * this many km (the meridian arc; haversineKm on the same sphere never answers less). Near mode uses it
 * to know which units it has certainly seen after reading the geo index outwards in latitude order.
 */
export function latitudeArcKm(dLatDeg: number): number {
  return EARTH_RADIUS_KM * rad(Math.abs(dLatDeg));
}

/**
 * The latitude/longitude box that contains every point within `radiusKm` of `c` (the prefilter the geo
 * index answers). A degree of latitude is ≥ 110.57 km; a degree of longitude shrinks with cos(latitude),
 * taken at the box's edge nearest the pole so the box never cuts the circle.
 */
export function boundingBox(c: LatLng, radiusKm: number) {
  const dLat = radiusKm / 110.574;
  const poleward = Math.min(89.9, Math.abs(c.lat) + dLat);
  const dLng = radiusKm / (111.32 * Math.cos(rad(poleward)));
  return { minLat: c.lat - dLat, maxLat: c.lat + dLat, minLng: c.lng - dLng, maxLng: c.lng + dLng };
}

/** "350 m", "1,2 km", "12 km": Swedish decimal comma, one decimal below 10 km. */
export function formatDistance(km: number): string {
  const metres = Math.round((km * 1000) / 10) * 10;
  if (metres < 1000) return `${Math.max(10, metres)} m`;
  const tenths = Math.round(km * 10) / 10;
  if (tenths < 10) return `${tenths.toFixed(1).replace('.', ',')} km`;
  return `${Math.round(km)} km`;
}

/**
 * Directions in the phone's map app (Google Maps URLs open the app on Android and iOS, else the web; no
 * key): by coordinates when the place has them, else by address. The venue page and the follow mail use it.
 */
export function directionsUrl(to: LatLng | null, address: string): string {
  const destination = to ? `${to.lat},${to.lng}` : address;
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(destination)}`;
}
