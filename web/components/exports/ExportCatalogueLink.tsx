import { buttonClass } from '../ui/Button';

/** Superadmin import tab: the whole catalogue as CSV in the import's own format. */
export function ExportCatalogueLink() {
  return (
    <a href="/api/exports/catalogue.csv" download className={buttonClass('secondary')}>
      Exportera katalogen (CSV)
    </a>
  );
}
