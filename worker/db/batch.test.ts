import { describe, expect, it } from 'vitest';
import { changes } from './batch';

describe('changes()', () => {
  it('counts the rows a .returning() statement returned, not the trigger-inflated meta.changes', () => {
    const returned = Object.assign([{ id: 'a' }, { id: 'b' }], { meta: { changes: 7 } });
    expect(changes(returned)).toBe(2);
    expect(changes([])).toBe(0);
  });

  it('falls back to D1 meta.changes for a statement without RETURNING, and 0 for anything else', () => {
    expect(changes({ success: true, meta: { changes: 3 } })).toBe(3);
    expect(changes({ meta: {} })).toBe(0);
    expect(changes({ meta: { changes: '3' } })).toBe(0);
    expect(changes(undefined)).toBe(0);
    expect(changes(null)).toBe(0);
  });
});
