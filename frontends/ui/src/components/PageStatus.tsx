import { Spinner } from './Spinner';

/** A whole-page waiting state with the exact words a screen must show ('Loading...', 'Redirecting...'). */
export function PageStatus({ text, testId = 'page-status' }: { text: string; testId?: string }) {
  return (
    <div className="lws-page-status" role="status" data-testid={testId}>
      <Spinner decorative />
      <p>{text}</p>
    </div>
  );
}
