// Scorekeeper: small progressive enhancements. Every page works without this file.
"use strict";
