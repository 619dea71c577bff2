import { Link } from 'react-router';
import { Card, CardContent, useDocumentTitle } from '@lws/fe-ui';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <Card data-testid="not-found">
      <CardContent className="lws-page">
        <h1 className="lws-page__title">404 Page Not Found</h1>
        <p className="lws-page__subtitle">The page you are looking for does not exist or has moved.</p>
        <p>
          <Link to="/">Go to your home page</Link>
        </p>
      </CardContent>
    </Card>
  );
}
