import { remoteConfig } from '@lws/fe-ui/build/rspack-config.mjs';

export default remoteConfig({ dir: import.meta.dirname, name: 'kiosk', expose: './src/App.tsx' });
