import {
  createContext,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type HTMLAttributes,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { cx } from './cx';

const MenuContext = createContext<{ close(): void } | null>(null);

export interface MenuProps {
  /** Content of the button that opens the menu. */
  trigger: ReactNode;
  /** Accessible name of that button when its content is not enough. */
  triggerLabel?: string;
  triggerTestId?: string;
  align?: 'start' | 'end';
  children: ReactNode;
  className?: string;
  'data-testid'?: string;
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return menu ? Array.from(menu.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')) : [];
}

/** A drop-down menu following the ARIA menu-button pattern (arrow keys, Escape, click outside). */
export function Menu({ trigger, triggerLabel, triggerTestId, align = 'end', children, className, ...rest }: MenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    menuItems(menuRef.current)[0]?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) triggerRef.current?.focus();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = menuItems(menuRef.current);
    const index = items.indexOf(document.activeElement as HTMLElement);
    let next = -1;
    if (event.key === 'ArrowDown') next = (index + 1) % items.length;
    else if (event.key === 'ArrowUp') next = (index - 1 + items.length) % items.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = items.length - 1;
    else if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    } else if (event.key === 'Tab') {
      close(false);
      return;
    }
    if (next < 0) return;
    event.preventDefault();
    items[next]?.focus();
  };

  return (
    <div ref={rootRef} className={cx('lws-menu', className)} data-testid={rest['data-testid']}>
      <button
        ref={triggerRef}
        type="button"
        className="lws-menu__trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={triggerLabel}
        data-testid={triggerTestId}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {trigger}
      </button>
      {open ? (
        <MenuContext.Provider value={{ close: () => close() }}>
          <div ref={menuRef} id={menuId} role="menu" className={cx('lws-menu__list', `lws-menu__list--${align}`)} onKeyDown={onMenuKeyDown}>
            {children}
          </div>
        </MenuContext.Provider>
      ) : null}
    </div>
  );
}

export interface MenuItemProps extends Omit<HTMLAttributes<HTMLButtonElement>, 'onSelect'> {
  onSelect(): void;
}

export function MenuItem({ onSelect, className, ...rest }: MenuItemProps) {
  const menu = useContext(MenuContext);
  return (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className={cx('lws-menu__item', className)}
      onClick={() => {
        menu?.close();
        onSelect();
      }}
      {...rest}
    />
  );
}

/** A heading inside the menu; not selectable. */
export function MenuLabel({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div role="presentation" className={cx('lws-menu__label', className)} {...rest} />;
}

export function MenuSeparator() {
  return <div role="separator" className="lws-menu__separator" />;
}
