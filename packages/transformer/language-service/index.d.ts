import init = require('../dist/language-service-plugin');
export = init;
