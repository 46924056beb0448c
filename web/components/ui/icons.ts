/**
 * The app's icons, one home. Each is imported from its own lucide module (`lucide-react/icons/<name>`),
 * never from the package root: the root re-exports all ~4 800 icons, and an unbundled module runner —
 * vitest in workerd loads the Worker (which server-renders these components) once per test file — would
 * fetch every one of them (about 25 s per file). Bundles tree-shake either way.
 * test/unit/one-home.test.ts keeps the root import out of the tree.
 */
export { default as Bell } from 'lucide-react/icons/bell';
export { default as CalendarDays } from 'lucide-react/icons/calendar-days';
export { default as CalendarPlus } from 'lucide-react/icons/calendar-plus';
export { default as ChevronDown } from 'lucide-react/icons/chevron-down';
export { default as ChevronLeft } from 'lucide-react/icons/chevron-left';
export { default as ChevronRight } from 'lucide-react/icons/chevron-right';
export { default as ChevronUp } from 'lucide-react/icons/chevron-up';
export { default as MapPin } from 'lucide-react/icons/map-pin';
export { default as Plus } from 'lucide-react/icons/plus';
export { default as Share2 } from 'lucide-react/icons/share-2';
export { default as Star } from 'lucide-react/icons/star';
