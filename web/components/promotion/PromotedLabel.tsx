import { TIER_LABELS, type Tier } from '../../../worker/features/promotion/contract';
import { Star } from '../ui/icons';

/** A quiz's promotion as a label: the tier's name, Premium with the site's star icon (an SVG, never an emoji). */
export function PromotedLabel({ tier, className }: { tier: Tier; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-1 ${className ?? ''}`}>
      {tier === 'premium' && <Star aria-hidden="true" className="size-4 fill-current" />}
      {TIER_LABELS[tier]}
    </span>
  );
}
