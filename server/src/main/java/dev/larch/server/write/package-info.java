/**
 * Write operations (add, delete, modify, modify DN): each runs as one LMDB write transaction on
 * the {@link dev.larch.server.write.WriteQueue}, off the event loop.
 */
package dev.larch.server.write;
