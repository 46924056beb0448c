/**
 * SEAM (owned by the takeover work of issue 7): mounted once on the owner dashboard; reads
 * ?from=verify&takeoverVenue={id} itself and opens the takeover success dialog with the counts of
 * places and quizzes. Replaced by the takeover feature.
 */
export default function TakeoverReturn(_props: { onDone?: () => void }) {
  return null;
}
