import { Badge } from '../components/Badge';
import { Card, CardContent } from '../components/Card';
import type { User } from '../auth/user';
import { roleLabel } from '../auth/user';
import { useT } from '../i18n/i18n';

/** Who is signed in: the placeholder home of every remote until its real screens land. */
export function SignedInCard({ user }: { user: User }) {
  const t = useT();
  return (
    <Card data-testid="signed-in-card">
      <CardContent className="lws-signed-in">
        <p>
          {t('Signed in as')} <strong data-testid="signed-in-name">{user.name}</strong>
        </p>
        <Badge variant="info" data-testid="signed-in-role">
          {t(roleLabel(user.role))}
        </Badge>
      </CardContent>
    </Card>
  );
}
