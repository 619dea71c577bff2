import { KioskLogin } from './pin-login/KioskLogin';

/** The kiosk remote: a shared terminal's PIN pad, shown without the shell's header. */
export default function KioskApp() {
  return <KioskLogin />;
}
