#!/usr/bin/env node
/**
 * `contract-codegen`, the installed package's command: codegen/main.ts's command line, writing files that import the
 * runtime by its package's name (`contract-runtime`, `contract-runtime/codec`, …), as a project that installed both
 * packages resolves it.
 *   npx contract-codegen --wsdl FILE --out DIR [--handlers DIR] [--service NAME] [--schemas DIR] [--catalog FILE]
 *   npx contract-codegen --xsd FILE --out DIR [--catalog FILE]
 */
import { runCommandLine } from './main';

runCommandLine(process.argv.slice(2), 'package');
