// Puts the client bundle's exports on the window for the browser test, then says the page is ready.
import * as puzzled from './puzzled-client.js';

window.puzzled = puzzled;
document.body.dataset.ready = 'true';
