// One build recipe for the shell and every remote, so their shared singletons
// and loaders can never drift apart.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { rspack } from '@rspack/core';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';

/** What every container shares. One copy of each at runtime: the shell's. */
export const sharedSingletons = {
  react: { singleton: true, requiredVersion: '^19.0.0' },
  'react/jsx-runtime': { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom': { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom/client': { singleton: true, requiredVersion: '^19.0.0' },
  // The page's one query cache is found through this module's React context.
  '@tanstack/react-query': { singleton: true, requiredVersion: '^5.0.0' },
  // react-router is not shared: only the shell bundles it, cut down to the parts it uses (a shared
  // module is shipped whole: 61 KB compressed on every page). A remote navigates with the
  // `useNavigate` that @lws/fe-ui re-exports, which is the shell's one router.
  // The shell's providers (auth, toasts) are only visible inside a remote if
  // both use the very same module instance of the design system.
  '@lws/fe-ui': { singleton: true, requiredVersion: false },
};

/**
 * One Module Federation runtime per page: the shell's. A remote's entry borrows it instead of
 * carrying a copy of its own (about 30 KB compressed less on /worker and /kiosk), so a remote only
 * runs inside the shell. Both leave out the runtime's code for Node.
 */
const FEDERATION_HOST_EXPERIMENTS = { provideExternalRuntime: true, optimization: { target: 'web' } };
const FEDERATION_REMOTE_EXPERIMENTS = { externalRuntime: true, optimization: { target: 'web' } };

const repoRoot = path.join(import.meta.dirname, '..', '..', '..');

function baseConfig({ dir, publicPath }) {
  return {
    mode: 'production',
    context: dir,
    devtool: false,
    target: 'web',
    resolve: {
      extensions: ['.tsx', '.ts', '.mjs', '.js'],
      // The status rules and the forms' schemas are compiled from source with the screens, as ES
      // modules, so a screen never runs rules older than the ones beside it in the repository.
      alias: {
        '@lws/rules$': path.join(repoRoot, 'libs/rules/src/index.ts'),
        '@lws/schemas$': path.join(repoRoot, 'libs/schemas/src/index.ts'),
      },
    },
    output: {
      path: path.join(dir, 'dist'),
      publicPath,
      filename: '[name].[contenthash:8].js',
      chunkFilename: '[name].[contenthash:8].js',
      cssFilename: '[name].[contenthash:8].css',
      cssChunkFilename: '[name].[contenthash:8].css',
      clean: true,
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          loader: 'builtin:swc-loader',
          options: {
            jsc: {
              parser: { syntax: 'typescript', tsx: true },
              transform: { react: { runtime: 'automatic' } },
              target: 'es2020',
            },
          },
          type: 'javascript/auto',
        },
        { test: /\.css$/, type: 'css' },
      ],
    },
    performance: { hints: false },
  };
}

/**
 * Lists the host's files in `precache.json`, for the service worker to keep at install so the
 * worker app opens without a network: the lazily loaded chunks are named nowhere else.
 */
class PrecacheListPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PrecacheList', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'PrecacheList', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT }, (assets) => {
        const names = Object.keys(assets)
          .filter((name) => /\.(?:js|css|html)$/.test(name) && name !== 'sw.js')
          .sort();
        compilation.emitAsset('precache.json', new rspack.sources.RawSource(JSON.stringify(names)));
      });
    });
  }
}

/**
 * The host's own files a screen needs, as `<link rel="preload">` tags (js as a script, css as a
 * style). At low priority, as the chunks they stand for would be: they are fetched at once, beside
 * the entry, but never ahead of the page's stylesheet and entry, which the first paint waits on.
 */
export function preloadTags(files, base = '/') {
  return files
    .map((file) => `<link rel="preload" as="${file.endsWith('.css') ? 'style' : 'script'}" href="${base}${file}" fetchpriority="low">`)
    .join('');
}

/**
 * The app's first render waits on code the entry only asks for once it has been downloaded and run:
 * the chunks of its async boundary (`import('./bootstrap')`) and of the shared singletons it
 * provides (react, react-dom, the query library, the design system). That is a round trip after
 * the entry's on every page. Their `<link rel="preload">` tags go into index.html's head, so the
 * browser fetches them beside the entry as soon as it reads the page.
 * `preload.json` lists each named chunk group's files beyond those (`{ "login": [...] }`), for the
 * gateway to preload the login page's code on a page that will show it to a signed-out visitor.
 */
export class FirstScreenPreloadPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('FirstScreenPreload', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'FirstScreenPreload', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT - 1 },
        (assets) => {
          const wanted = (name) => /\.(?:js|css)$/.test(name);
          const filesOf = (group) => group.chunks.flatMap((chunk) => [...chunk.files]).filter(wanted);
          const entryFiles = new Set();
          const entryModules = new Set();
          for (const entrypoint of compilation.entrypoints.values()) {
            for (const file of filesOf(entrypoint)) entryFiles.add(file);
            for (const chunk of entrypoint.chunks)
              for (const module of compilation.chunkGraph.getChunkEntryModulesIterable(chunk)) entryModules.add(module.identifier());
          }
          const originOf = (group) => group.origins.map((origin) => origin.module?.identifier?.() ?? '');
          const app = new Set();
          const named = {};
          for (const group of compilation.chunkGroups) {
            if (group.isInitial()) continue;
            const origins = originOf(group);
            if (origins.some((id) => entryModules.has(id) || id.startsWith('provide shared module')))
              for (const file of filesOf(group)) app.add(file);
            else if (group.name) named[group.name] = filesOf(group);
          }
          const appFiles = [...app].filter((file) => !entryFiles.has(file)).sort();
          const rest = Object.fromEntries(
            Object.entries(named).map(([name, files]) => [
              name,
              [...new Set(files)].filter((f) => !app.has(f) && !entryFiles.has(f)).sort(),
            ]),
          );
          compilation.emitAsset('preload.json', new rspack.sources.RawSource(JSON.stringify({ app: appFiles, ...rest })));
          const html = assets['index.html'];
          if (!html) return;
          const publicPath = compilation.outputOptions.publicPath === 'auto' ? '/' : compilation.outputOptions.publicPath;
          const page = html.source().toString();
          if (!page.includes('</head>')) throw new Error('index.html has no </head> for the preload tags');
          compilation.updateAsset(
            'index.html',
            new rspack.sources.RawSource(page.replace('</head>', `${preloadTags(appFiles, publicPath)}</head>`)),
          );
        },
      );
    });
  }
}

/** Text files the gateway serves compressed, and the size below which compressing is not worth it. */
const COMPRESSIBLE = /\.(?:js|css|html|json|webmanifest|svg|txt)$/;
const COMPRESS_MIN_BYTES = 1024;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside each text file, compressed once at
 * build time at the highest level: the gateway sends the one the browser accepts,
 * without compressing on every request.
 */
class PrecompressPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('Precompress', (compilation) => {
      // After every other step has written its files (the precache list among them).
      compilation.hooks.processAssets.tap({ name: 'Precompress', stage: rspack.Compilation.PROCESS_ASSETS_STAGE_REPORT + 1 }, (assets) => {
        for (const [name, source] of Object.entries(assets)) {
          if (!COMPRESSIBLE.test(name)) continue;
          const bytes = Buffer.from(source.buffer());
          if (bytes.length < COMPRESS_MIN_BYTES) continue;
          const br = brotliCompressSync(bytes, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
          });
          compilation.emitAsset(`${name}.br`, new rspack.sources.RawSource(br));
          compilation.emitAsset(`${name}.gz`, new rspack.sources.RawSource(gzipSync(bytes, { level: 9 })));
        }
      });
    });
  }
}

/** The host: served at `/`, finds its remotes at runtime from /config.json; `public/` is copied to the root as is. */
export function hostConfig({ dir }) {
  return {
    ...baseConfig({ dir, publicPath: '/' }),
    entry: { main: './src/index.ts' },
    plugins: [
      new ModuleFederationPlugin({
        name: 'lws_shell',
        remotes: {},
        shared: sharedSingletons,
        // A remote that is down must not stop the shell from starting: take
        // whatever singleton is already loaded instead of asking every remote.
        shareStrategy: 'loaded-first',
        dts: false,
        manifest: false,
        experiments: FEDERATION_HOST_EXPERIMENTS,
      }),
      new rspack.HtmlRspackPlugin({
        template: './src/index.html',
        // In the head, deferred: the entry is asked for before the preloaded chunks (which follow
        // it), and still runs once the page is parsed.
        inject: 'head',
        scriptLoading: 'defer',
      }),
      // Files served as they are at the site root, e.g. the service worker, whose scope is the folder it is served from.
      ...(existsSync(path.join(dir, 'public')) ? [new rspack.CopyRspackPlugin({ patterns: [{ from: 'public', to: '.' }] })] : []),
      new FirstScreenPreloadPlugin(),
      new PrecacheListPlugin(),
      new PrecompressPlugin(),
    ],
  };
}

/**
 * A remote: one bridge component exposed as `./App`, assets under
 * `/remotes/<name>/`, located through its `mf-manifest.json` (publicPath auto).
 */
export function remoteConfig({ dir, name, expose }) {
  const config = baseConfig({ dir, publicPath: 'auto' });
  return {
    ...config,
    // The container itself needs no entry of its own.
    entry: {},
    plugins: [
      new ModuleFederationPlugin({
        name: `lws_${name}`,
        filename: 'remoteEntry.js',
        exposes: { './App': expose },
        shared: sharedSingletons,
        shareStrategy: 'loaded-first',
        dts: false,
        manifest: { fileName: 'mf-manifest.json' },
        experiments: FEDERATION_REMOTE_EXPERIMENTS,
      }),
      new PrecompressPlugin(),
    ],
  };
}
