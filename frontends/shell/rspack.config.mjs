import { hostConfig } from '@lws/fe-ui/build/rspack-config.mjs';

export default hostConfig({ dir: import.meta.dirname });
