// broken-import.html's module: it imports one the server does not have.
import './no-such-module.mjs';
