import { useNavigate } from 'react-router';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  roleLabel,
  useAuth,
  useDocumentTitle,
} from '@lws/fe-ui';

function backTarget(role: string | undefined): string {
  if (role === 'worker') return '/worker';
  if (role === 'admin') return '/admin';
  return '/';
}

export function ProfilePage() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  useDocumentTitle('Profile');
  if (!user) return null;

  return (
    <div className="lws-page" data-testid="profile-page">
      <h1 className="lws-page__title">Profile</h1>
      <Card>
        <CardHeader>
          <CardTitle>Your details</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="lws-info-list" data-testid="profile-details">
            <dt>Name</dt>
            <dd data-testid="profile-name">{user.name}</dd>
            <dt>Username</dt>
            <dd data-testid="profile-username">{user.username}</dd>
            <dt>Role</dt>
            <dd>
              <Badge variant="info">{roleLabel(user.role)}</Badge>
            </dd>
            {user.phone ? (
              <>
                <dt>Phone</dt>
                <dd>{user.phone}</dd>
              </>
            ) : null}
          </dl>
        </CardContent>
      </Card>
      <div className="lws-actions">
        <Button variant="outline" onClick={() => navigate(backTarget(user.role))} data-testid="profile-back">
          Back to Check-In
        </Button>
        <Button variant="destructive" onClick={() => void logout()} data-testid="profile-logout">
          Log Out
        </Button>
      </div>
    </div>
  );
}
