// ESLint for the server's browser scripts (src/koth/server/static), run by scripts/lint-js.
// The pages load them as classic scripts that share a few globals, each defined by one
// file: DOM (dom.js), Liveness and LiveSocket (liveness.js), KOTH (client.js), Q (quiz/quiz.js) and
// QuizSound (quiz/projector_sound.js).
import js from "@eslint/js";
import globals from "globals";

const SHARED = { DOM: "readonly", Liveness: "readonly", LiveSocket: "readonly", KOTH: "readonly", Q: "readonly", QuizSound: "readonly" };
const STATIC = "src/koth/server/static";

export default [
  js.configs.recommended,
  {
    files: [`${STATIC}/**/*.js`],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser, ...SHARED },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "always"],
      "no-var": "error",
      "prefer-const": "error",
      strict: ["error", "global"],
    },
  },
  // each shared global is declared by the file that defines it
  { files: [`${STATIC}/dom.js`], languageOptions: { globals: { DOM: "off" } } },
  { files: [`${STATIC}/liveness.js`], languageOptions: { globals: { Liveness: "off", LiveSocket: "off" } } },
  { files: [`${STATIC}/client.js`], languageOptions: { globals: { KOTH: "off" } } },
  { files: [`${STATIC}/quiz/quiz.js`], languageOptions: { globals: { Q: "off" } } },
  { files: [`${STATIC}/quiz/projector_sound.js`], languageOptions: { globals: { QuizSound: "off" } } },
];
