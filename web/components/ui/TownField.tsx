import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import { townNames } from '../../../worker/lib/gazetteer';
import { TextField } from './Field';

/**
 * A place's town (issue 43.6): a text input that suggests the known Swedish towns as one types — the same list the
 * city rule (worker/lib/city-field.ts) accepts. Its own module: the list is the gazetteer, kept out of public pages.
 */
export function TownField({ label = 'Stad', ...props }: { label?: ReactNode; error?: string | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  const list = `${useId()}-orter`;
  return (
    <>
      <TextField label={label} autoComplete="address-level2" list={list} {...props} />
      <datalist id={list}>
        {townNames().map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
    </>
  );
}
