import { useEffect, useMemo, useState, type ChangeEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  Label,
  Select,
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
  ApiError,
  api,
  failureMessage,
  msg,
  useT,
  useToast,
  type BadgeVariant,
} from '@lws/fe-ui';
import { parseImportResult, type ImportAction, type ImportResult } from './import-api';

/** Rows shown at once: a file of 10,000 rows is summarised, and filtered to what needs reading. */
const SHOWN_ROWS = 200;
const TEMPLATE = 'username,name,phone,role,team,pin,language\r\njsmith,Jo Smith,+447911123456,worker,North Estates,,en\r\n';
const ACTION_LABEL: Record<ImportAction, string> = {
  created: msg('New account'),
  updated: msg('Updated'),
  unchanged: msg('Unchanged'),
  error: msg('Error'),
};
const ACTION_BADGE: Record<ImportAction, BadgeVariant> = { created: 'success', updated: 'info', unchanged: 'neutral', error: 'danger' };

type Filter = 'attention' | ImportAction | 'all';

/**
 * Bulk onboarding: the superadmin picks a CSV, sees what each row would do (the dry run:
 * nothing changes), confirms, and downloads the new accounts' temporary passwords and PINs, which
 * are shown this once.
 */
export function ImportCard() {
  const { toast } = useToast();
  const t = useT();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [checking, setChecking] = useState(false);
  const [importing, setImporting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [filter, setFilter] = useState<Filter>('attention');
  const [credentials, setCredentials] = useState<string | null>(null);

  const send = async (text: string, dryRun: boolean): Promise<ImportResult> => {
    try {
      return parseImportResult(
        await api.post(`/api/users/import${dryRun ? '?dryRun=true' : ''}`, undefined, { file: { content: text, contentType: 'text/csv' } }),
      );
    } catch (e) {
      // A real run that found a wrong row answers 422 with the same table: nothing was imported.
      if (e instanceof ApiError && e.status === 422) return parseImportResult(e.body);
      throw e;
    }
  };

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    setResult(null);
    setFailure(null);
    setCredentials(null);
    if (!picked) return setFile(null);
    const text = await picked.text();
    setFile({ name: picked.name, text });
    setChecking(true);
    try {
      const checked = await send(text, true);
      setResult(checked);
      setFilter(checked.summary.errors > 0 ? 'error' : 'attention');
    } catch (e) {
      setFailure(failureMessage(e, msg('The file could not be checked.')));
    } finally {
      setChecking(false);
    }
  };

  const runImport = async () => {
    if (!file) return;
    setImporting(true);
    try {
      const done = await send(file.text, false);
      setResult(done);
      if (done.applied) {
        setCredentials(done.credentialsCsv ?? null);
        toast({
          title: t('Import complete'),
          message: t('{{created}} created, {{updated}} updated, {{unchanged}} unchanged', {
            created: done.summary.created,
            updated: done.summary.updated,
            unchanged: done.summary.unchanged,
          }),
        });
      } else {
        setFilter('error');
        toast({
          title: t('Nothing was imported'),
          message: t(done.message ?? msg('Correct the rows marked error and try again.')),
          type: 'error',
        });
      }
    } catch (e) {
      toast({ title: t('Import failed'), message: t(failureMessage(e, msg('Nothing was imported. Try again.'))), type: 'error' });
    } finally {
      setImporting(false);
      setConfirming(false);
    }
  };

  const rows = useMemo(() => {
    if (!result) return [];
    if (filter === 'all') return result.rows;
    if (filter === 'attention') return result.rows.filter((r) => r.action !== 'unchanged');
    return result.rows.filter((r) => r.action === filter);
  }, [result, filter]);

  const summary = result?.summary;
  const toImport = summary ? summary.created + summary.updated : 0;
  const canImport = !!result && !result.applied && !!summary && summary.errors === 0 && summary.created + summary.updated > 0;

  return (
    <Card data-testid="import">
      <CardHeader>
        <CardTitle>{t('Import accounts')}</CardTitle>
        <CardDescription>
          {t(
            'Add or update up to 10,000 workers and admins from a CSV file with the columns username, name, phone, role, team, pin and language (team, pin and language may be empty: a new account without a PIN gets one, and without a language is in English, en; cy is Welsh). The file is checked first; nothing changes until you confirm, and then every row is imported or none.',
          )}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <div className="lws-inline-form">
          <Label htmlFor="import-file">{t('CSV file')}</Label>
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void choose(e)}
            disabled={checking || importing}
            data-testid="import-file"
          />
          <TemplateLink />
        </div>
        {checking ? <p role="status">{t('Checking {{file}}…', { file: file?.name ?? '' })}</p> : null}
        {failure ? (
          <Alert variant="error" data-testid="import-error">
            {t(failure)}
          </Alert>
        ) : null}
        {credentials ? <CredentialsDownload csv={credentials} onDone={() => setCredentials(null)} /> : null}
        {result && summary ? (
          <>
            <p data-testid="import-summary" role="status">
              {t(
                result.applied
                  ? msg(
                      'Imported {{file}}: {{rows}} rows, {{created}} new, {{updated}} updated, {{unchanged}} unchanged, {{errors}} with errors.',
                    )
                  : result.dryRun
                    ? msg(
                        'Checked {{file}}: {{rows}} rows, {{created}} new, {{updated}} updated, {{unchanged}} unchanged, {{errors}} with errors.',
                      )
                    : msg(
                        'Not imported {{file}}: {{rows}} rows, {{created}} new, {{updated}} updated, {{unchanged}} unchanged, {{errors}} with errors.',
                      ),
                { file: file?.name ?? '', ...summary },
              )}
            </p>
            {summary.errors > 0 ? (
              <Alert variant="error" data-testid="import-has-errors">
                {summary.errors === 1
                  ? t(
                      '{{number}} row has errors: correct it in the file and choose it again. Nothing is imported while any row is wrong.',
                      { number: summary.errors },
                    )
                  : t(
                      '{{number}} rows have errors: correct them in the file and choose it again. Nothing is imported while any row is wrong.',
                      { number: summary.errors },
                    )}
              </Alert>
            ) : null}
            <div className="lws-inline-form">
              <Label htmlFor="import-filter">{t('Show')}</Label>
              <Select id="import-filter" value={filter} onChange={(e) => setFilter(e.target.value as Filter)} data-testid="import-filter">
                <option value="attention">{t('New, updated and errors')}</option>
                <option value="error">{t('Errors')}</option>
                <option value="created">{t('New accounts')}</option>
                <option value="updated">{t('Updated')}</option>
                <option value="unchanged">{t('Unchanged')}</option>
                <option value="all">{t('All rows')}</option>
              </Select>
              {canImport ? (
                <Button onClick={() => setConfirming(true)} busy={importing} data-testid="import-confirm">
                  {toImport === 1
                    ? t('Import {{number}} account', { number: toImport })
                    : t('Import {{number}} accounts', { number: toImport })}
                </Button>
              ) : null}
            </div>
            <Table label={t('Import rows')} data-testid="import-table">
              <TableCaption>
                {rows.length > SHOWN_ROWS
                  ? t('The first {{shown}} of {{number}} rows shown', { shown: SHOWN_ROWS, number: rows.length })
                  : rows.length === 1
                    ? t('{{number}} row shown', { number: rows.length })
                    : t('{{number}} rows shown', { number: rows.length })}
              </TableCaption>
              <TableHeader>
                <TableRow>
                  <TableHead>{t('Row')}</TableHead>
                  <TableHead>{t('Username')}</TableHead>
                  <TableHead>{t('Result')}</TableHead>
                  <TableHead>{t('Details')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {rows.slice(0, SHOWN_ROWS).map((r) => (
                  <TableRow key={r.row} data-testid="import-row" data-action={r.action}>
                    <TableCell>{r.row}</TableCell>
                    <TableCell>{r.username || '—'}</TableCell>
                    <TableCell>
                      <Badge variant={ACTION_BADGE[r.action]}>{t(ACTION_LABEL[r.action])}</Badge>
                    </TableCell>
                    <TableCell>
                      {r.errors?.map((e) => `${e.field}: ${t(e.message)}`).join('; ') ??
                        (r.fields ? t('Changes {{fields}}', { fields: r.fields.join(', ') }) : '')}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        ) : null}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        title={t('Import these accounts?')}
        description={
          summary
            ? t(
                summary.created === 1
                  ? msg(
                      '{{created}} new account will be created and {{updated}} updated, all at once. New accounts get temporary passwords, shown once for you to download.',
                    )
                  : msg(
                      '{{created}} new accounts will be created and {{updated}} updated, all at once. New accounts get temporary passwords, shown once for you to download.',
                    ),
                { created: summary.created, updated: summary.updated },
              )
            : ''
        }
        confirmLabel={t('Import')}
        busyLabel={t('Importing...')}
        busy={importing}
        onConfirm={() => void runImport()}
        onCancel={() => setConfirming(false)}
        data-testid="import-dialog"
      />
    </Card>
  );
}

function TemplateLink() {
  const t = useT();
  const href = useObjectUrl(TEMPLATE);
  return (
    <a className="lws-btn lws-btn--outline lws-btn--sm" href={href} download="lws-accounts-template.csv" data-testid="import-template">
      {t('Download a template')}
    </a>
  );
}

/** The new accounts' credentials: a download offered once, then forgotten by the page. */
function CredentialsDownload({ csv, onDone }: { csv: string; onDone: () => void }) {
  const t = useT();
  const href = useObjectUrl(csv);
  const name = `lws-new-accounts-${new Date().toISOString().slice(0, 10)}.csv`;
  return (
    <Alert variant="warning" data-testid="import-credentials">
      <p>
        {t(
          "The new accounts' temporary passwords and PINs are shown this once. Download them now, give each person only their own line, and ask them to change their password once they have signed in.",
        )}
      </p>
      <div className="lws-actions">
        <a className="lws-btn lws-btn--primary lws-btn--sm" href={href} download={name} data-testid="import-credentials-download">
          {t('Download passwords and PINs (CSV)')}
        </a>
        <Button size="sm" variant="outline" onClick={onDone} data-testid="import-credentials-done">
          {t('Done: forget them')}
        </Button>
      </div>
    </Alert>
  );
}

function useObjectUrl(text: string): string | undefined {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const made = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [text]);
  return url;
}
