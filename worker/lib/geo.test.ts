import { describe, expect, it } from 'vitest';
import { boundingBox, formatDistance, haversineKm } from './geo';

describe('geo', () => {
  it('haversine: Stockholm–Göteborg ≈ 398 km, a point to itself 0', () => {
    expect(haversineKm({ lat: 59.3293, lng: 18.0686 }, { lat: 57.7089, lng: 11.9746 })).toBeCloseTo(398, -1);
    expect(haversineKm({ lat: 57.7, lng: 11.97 }, { lat: 57.7, lng: 11.97 })).toBe(0);
  });
  it('the bounding box contains the whole circle (also its east/west extremes far north)', () => {
    for (const c of [
      { lat: 55.6, lng: 13 },
      { lat: 67.85, lng: 20.22 },
    ]) {
      const b = boundingBox(c, 100);
      for (let deg = 0; deg < 360; deg += 5) {
        // Walk to the circle's edge along bearing `deg` and check the point is inside the box.
        const br = (deg * Math.PI) / 180;
        const d = 99.9 / 6371.0088;
        const la1 = (c.lat * Math.PI) / 180;
        const lo1 = (c.lng * Math.PI) / 180;
        const la2 = Math.asin(Math.sin(la1) * Math.cos(d) + Math.cos(la1) * Math.sin(d) * Math.cos(br));
        const lo2 = lo1 + Math.atan2(Math.sin(br) * Math.sin(d) * Math.cos(la1), Math.cos(d) - Math.sin(la1) * Math.sin(la2));
        const p = { lat: (la2 * 180) / Math.PI, lng: (lo2 * 180) / Math.PI };
        expect(p.lat).toBeGreaterThanOrEqual(b.minLat);
        expect(p.lat).toBeLessThanOrEqual(b.maxLat);
        expect(p.lng).toBeGreaterThanOrEqual(b.minLng);
        expect(p.lng).toBeLessThanOrEqual(b.maxLng);
      }
    }
  });
  it('formats Swedish distances', () => {
    expect(formatDistance(0.004)).toBe('10 m');
    expect(formatDistance(0.347)).toBe('350 m');
    expect(formatDistance(1.234)).toBe('1,2 km');
    expect(formatDistance(9.96)).toBe('10 km');
    expect(formatDistance(0.996)).toBe('1,0 km');
    expect(formatDistance(12.4)).toBe('12 km');
  });
});
