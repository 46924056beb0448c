/** Placeholder until built. */
import NotFound from '../NotFound';
export default NotFound;
