import { useState } from 'react';
import { useT } from '../i18n/i18n';
import { Button } from './Button';

/**
 * Copies `value` to the clipboard and says so ("Copied") until another value is shown. Nothing
 * when the browser gives no clipboard (an insecure origin): the value is still there to select.
 */
export function CopyButton({ value, testId }: { value: string; testId?: string }) {
  const t = useT();
  // Which value was copied, so a newer one shown here starts as not copied.
  const [copied, setCopied] = useState<string | null>(null);
  if (typeof navigator === 'undefined' || !navigator.clipboard) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(value);
    } catch {
      setCopied(null);
    }
  };
  return (
    <Button variant="outline" size="sm" onClick={() => void copy()} data-testid={testId}>
      {copied === value ? t('Copied') : t('Copy')}
    </Button>
  );
}
