/**
 * Routes each decoded request to the handler for its operation
 * ({@link dev.larch.server.route.OperationRouter}) and answers extended operations; any failure
 * becomes the operation's response here.
 */
package dev.larch.server.route;
