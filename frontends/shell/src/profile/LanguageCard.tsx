import { useId, useState } from 'react';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Label,
  Select,
  api,
  failureMessage,
  languageName,
  msg,
  useLanguage,
  useT,
  useToast,
} from '@lws/fe-ui';

export interface LanguageCardProps {
  userId: number;
  /** The language saved on the account. */
  language: string;
  /** Reloads the signed-in user, whose language the screens then speak. */
  onSaved(): Promise<unknown>;
}

/** The account's language: its screens, and the texts and calls LWS sends about it. */
export function LanguageCard({ userId, language, onSaved }: LanguageCardProps) {
  const t = useT();
  const { toast } = useToast();
  const { languages } = useLanguage();
  const [saving, setSaving] = useState(false);
  const id = useId();

  const choose = async (next: string) => {
    setSaving(true);
    try {
      await api.patch(`/api/users/${userId}`, { language: next });
      await onSaved();
    } catch (e) {
      toast({
        title: t('Update failed'),
        message: t(failureMessage(e, msg('Your language could not be saved. Please try again.'))),
        type: 'error',
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card data-testid="language-card">
      <CardHeader>
        <CardTitle>{t('Language')}</CardTitle>
        <CardDescription>{t('Your screens, and the texts and calls LWS sends you, are in this language.')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Label htmlFor={id}>{t('Language')}</Label>
        <Select id={id} value={language} disabled={saving} onChange={(e) => void choose(e.target.value)} data-testid="language-select">
          {languages.map((code) => (
            <option key={code} value={code} lang={code}>
              {languageName(code)}
            </option>
          ))}
        </Select>
      </CardContent>
    </Card>
  );
}
