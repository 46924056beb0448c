/** The map's raster tiles (issue 15): MAP_TILE_URL's default and the attribution the tiles require. */
export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const OSM_ATTRIBUTION = '© <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>-bidragsgivare';
