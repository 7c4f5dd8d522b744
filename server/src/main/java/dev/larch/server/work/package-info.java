/**
 * Work that must not run on an event loop (password hashing, searches that may run long), on a
 * bounded pool that refuses rather than queues without end.
 */
package dev.larch.server.work;
