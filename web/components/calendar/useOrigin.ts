import { useEffect, useState } from 'react';

/**
 * The page's origin, '' during server rendering and the hydrating render (so the markup matches),
 * then location.origin. Links that need an absolute URL render a relative one until then.
 */
export function useOrigin(): string {
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);
  return origin;
}
