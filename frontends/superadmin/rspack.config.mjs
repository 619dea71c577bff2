import { remoteConfig } from '@lws/fe-ui/build/rspack-config.mjs';

export default remoteConfig({ dir: import.meta.dirname, name: 'superadmin', expose: './src/App.tsx' });
