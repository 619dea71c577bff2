import { Link } from 'react-router';
import { Card, CardContent, useDocumentTitle, useT } from '@lws/fe-ui';

export function NotFoundPage() {
  const t = useT();
  useDocumentTitle(t('Page not found'));
  return (
    <Card data-testid="not-found">
      <CardContent className="lws-page">
        <h1 className="lws-page__title">{t('404 Page Not Found')}</h1>
        <p className="lws-page__subtitle">{t('The page you are looking for does not exist or has moved.')}</p>
        <p>
          <Link to="/">{t('Go to your home page')}</Link>
        </p>
      </CardContent>
    </Card>
  );
}
