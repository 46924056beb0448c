/** The freshness mails (issue 20 §3): one per step, to the business owner, with the one-click confirm link. */
import { FRESHNESS_HIDE_AFTER_DAYS, FRESHNESS_HIDE_STAGE as HIDE_STAGE, FRESHNESS_WARN_DAYS, FRESHNESS_WARN_STAGE as WARN_STAGE } from './contract';

/** Send key of one freshness step's mail (the nightly mail-redeliver sweep matches FRESHNESS_MAIL_KEY). */
export const FRESHNESS_MAIL_KEY = 'freshness:';
export const freshnessMailKey = (venueId: string, confirmedOn: string, stage: number) => `${FRESHNESS_MAIL_KEY}${venueId}:${confirmedOn}:${stage}`;

export function freshnessMail(to: string, venueName: string, stage: number, confirmedOn: string, link: string) {
  const since = `Uppgifterna om ${venueName} bekräftades senast ${confirmedOn}.`;
  const confirm = `Stämmer allt? Bekräfta med ett klick (ingen inloggning behövs):\n${link}\n\nÄr något fel, logga in och ändra det — varje ändring räknas också som en bekräftelse.`;
  if (stage >= HIDE_STAGE)
    return {
      to,
      subject: `Era quiz visas inte längre på Quizkväll`,
      text: `Hej!\n\n${since} Efter ${FRESHNESS_HIDE_AFTER_DAYS} dagar utan bekräftelse visas quizen inte längre för besökare (inget är raderat).\n\n${confirm}\n\nHälsningar,\nQuizkväll`,
    };
  if (stage === WARN_STAGE)
    return {
      to,
      subject: `Varning: era quiz döljs snart på Quizkväll`,
      text: `Hej!\n\n${since} Om ni inte bekräftar inom ${FRESHNESS_HIDE_AFTER_DAYS - FRESHNESS_WARN_DAYS} dagar döljs quizen för besökare tills ni bekräftar.\n\n${confirm}\n\nHälsningar,\nQuizkväll`,
    };
  return {
    to,
    subject: `Stämmer era quiz fortfarande?`,
    text: `Hej!\n\n${since} Besökare litar på att quizen på Quizkväll stämmer.\n\n${confirm}\n\nHälsningar,\nQuizkväll`,
  };
}
