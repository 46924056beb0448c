import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { setServerErrors } from './form';

describe('setServerErrors', () => {
  it('puts each issue on the field its path starts with, the first message per field', () => {
    const setError = vi.fn();
    const err = new ApiError(400, 'invalid_input', 'Ogiltiga uppgifter', [
      { path: 'theme', message: 'Välj ett tema' },
      { path: 'days.0', message: 'Ogiltig veckodag' },
      { path: 'theme', message: 'Andra meddelandet' },
    ]);
    expect(setServerErrors(setError, err)).toBe(true);
    expect(setError.mock.calls).toEqual([
      ['theme', { type: 'server', message: 'Välj ett tema' }],
      ['days', { type: 'server', message: 'Ogiltig veckodag' }],
    ]);
  });
  it('does nothing for errors without issues', () => {
    const setError = vi.fn();
    expect(setServerErrors(setError, new ApiError(500, 'internal', 'Fel'))).toBe(false);
    expect(setServerErrors(setError, new Error('nätverk'))).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });
});
