/**
 * Unit and integration tests (real PostgreSQL, NATS and Redis on 127.0.0.1), and the frontends'
 * component tests (`*.spec.tsx`, each in jsdom by its docblock).
 */
module.exports = {
  testEnvironment: 'node',
  roots: [
    '<rootDir>/libs',
    '<rootDir>/services',
    '<rootDir>/tools',
    '<rootDir>/tests/integration',
    '<rootDir>/tests/chaos',
    '<rootDir>/tests/fuzz',
    '<rootDir>/tests/repo',
    '<rootDir>/frontends',
  ],
  testMatch: ['**/*.spec.ts', '**/*.test.ts', '**/*.spec.tsx'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    // One entry: ts-jest keeps one configuration per run, whatever each entry says.
    '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  moduleNameMapper: {
    '^@lws/(contracts|messaging|platform|testing|rules|schemas|telemetry|i18n)$': '<rootDir>/libs/$1/src',
    '^@lws/(gateway|identity|locations|shifts|escalation|notifications|audit)$': '<rootDir>/services/$1/src',
    '^@lws/stack$': '<rootDir>/tools/stack/src',
    // The bundler lists the translation files at build time; under Jest they are read from disk.
    '^\\./locale-files$': '<rootDir>/frontends/ui/src/i18n/locale-files.node.ts',
  },
  setupFiles: ['<rootDir>/libs/testing/src/jest-setup.ts'],
  testTimeout: 60000,
  maxWorkers: 2,
};
