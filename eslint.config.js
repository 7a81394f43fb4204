'use strict';
// ESLint for the JavaScript in lib/, bin/, scripts/, benchmark/ and test/
// (npm run lint, and test/lint.test.js in npm test). The rules are
// eslint:recommended, a few more that catch bugs, and only the layout the
// code already follows everywhere: it is a check, not a reformat.
const js = require('@eslint/js');
const globals = require('globals');

module.exports = [
  { ignores: ['build/', 'prebuilds/', 'node_modules/', 'benchmark/results/'] },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node } },
  },
  {
    files: ['test/**/*.js'],
    languageOptions: { globals: { ...globals.mocha } },
  },
  {
    rules: {
      // Deliberately unused: a rest sibling's omitted keys, _-named
      // arguments and bindings.
      'no-unused-vars': ['error', {
        args: 'after-used',
        argsIgnorePattern: '^_',
        varsIgnorePattern: '^_',
        caughtErrors: 'all',
        caughtErrorsIgnorePattern: '^_',
        ignoreRestSiblings: true,
      }],
      // The code matches control characters on purpose (quoting file names,
      // latin1 checks), and writes a format's literal spaces as spaces.
      'no-control-regex': 'off',
      'no-regex-spaces': 'off',

      // Bugs beyond eslint:recommended.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-new-wrappers': 'error',
      'no-extend-native': 'error',
      'prefer-rest-params': 'error',
      'no-throw-literal': 'error',
      'no-implicit-globals': 'error',
      'no-implied-eval': 'error',
      'no-self-compare': 'error',
      'no-template-curly-in-string': 'error',
      'array-callback-return': 'error',
      'no-constructor-return': 'error',
      'no-unmodified-loop-condition': 'error',
      'no-unreachable-loop': 'error',
      'no-unused-expressions': 'error',
      'no-sequences': 'error',
      radix: 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      strict: ['error', 'global'],

      // Layout the code already follows everywhere.
      semi: ['error', 'always'],
      indent: ['error', 2, { SwitchCase: 1, ignoreComments: true }],
      'comma-dangle': ['error', 'always-multiline'],
      'brace-style': ['error', '1tbs', { allowSingleLine: true }],
      curly: ['error', 'multi-line'],
      'keyword-spacing': 'error',
      'space-before-blocks': 'error',
      'space-before-function-paren': ['error', { anonymous: 'always', named: 'never', asyncArrow: 'always' }],
      'space-infix-ops': 'error',
      'comma-spacing': 'error',
      'object-curly-spacing': ['error', 'always'],
      'arrow-parens': ['error', 'always'],
      'no-trailing-spaces': 'error',
      'eol-last': 'error',
    },
  },
  {
    // A library prints nothing of its own.
    files: ['lib/**'],
    rules: { 'no-console': 'error' },
  },
];
