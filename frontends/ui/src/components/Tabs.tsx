import { createContext, useContext, useId, useState, type HTMLAttributes, type KeyboardEvent, type ReactNode } from 'react';
import { cx } from './cx';

interface TabsState {
  value: string;
  select(value: string): void;
  baseId: string;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = useContext(TabsContext);
  if (!state) throw new Error('Tabs parts must be used inside <Tabs>');
  return state;
}

export interface TabsProps {
  /** Controlled selection; leave out and use `defaultValue` for uncontrolled tabs. */
  value?: string;
  defaultValue?: string;
  onValueChange?(value: string): void;
  children: ReactNode;
  className?: string;
}

export function Tabs({ value, defaultValue = '', onValueChange, children, className }: TabsProps) {
  const [own, setOwn] = useState(defaultValue);
  const baseId = useId();
  const current = value ?? own;
  const select = (next: string) => {
    if (value === undefined) setOwn(next);
    onValueChange?.(next);
  };
  return (
    <TabsContext.Provider value={{ value: current, select, baseId }}>
      <div className={cx('lws-tabs', className)}>{children}</div>
    </TabsContext.Provider>
  );
}

/** Arrow keys, Home and End move between tabs, as the ARIA tabs pattern expects. */
function onListKeyDown(event: KeyboardEvent<HTMLDivElement>) {
  const tabs = Array.from(event.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not([disabled])'));
  const index = tabs.indexOf(document.activeElement as HTMLButtonElement);
  if (index < 0) return;
  let next = -1;
  if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
  else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = tabs.length - 1;
  if (next < 0) return;
  event.preventDefault();
  tabs[next]?.focus();
  tabs[next]?.click();
}

export function TabsList({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div role="tablist" className={cx('lws-tabs__list', className)} onKeyDown={onListKeyDown} {...rest} />;
}

export interface TabsTriggerProps extends Omit<HTMLAttributes<HTMLButtonElement>, 'onClick'> {
  value: string;
  disabled?: boolean;
}

export function TabsTrigger({ value, className, disabled, ...rest }: TabsTriggerProps) {
  const tabs = useTabs();
  const selected = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={`${tabs.baseId}-tab-${value}`}
      aria-selected={selected}
      aria-controls={`${tabs.baseId}-panel-${value}`}
      tabIndex={selected ? 0 : -1}
      disabled={disabled}
      className={cx('lws-tabs__trigger', className)}
      onClick={() => tabs.select(value)}
      {...rest}
    />
  );
}

export interface TabsContentProps extends HTMLAttributes<HTMLDivElement> {
  value: string;
}

export function TabsContent({ value, className, ...rest }: TabsContentProps) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={`${tabs.baseId}-panel-${value}`}
      aria-labelledby={`${tabs.baseId}-tab-${value}`}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the WAI-ARIA tabs pattern makes the panel focusable, so Tab moves from the tab list into it.
      tabIndex={0}
      className={cx('lws-tabs__content', className)}
      {...rest}
    />
  );
}
