/**
 * Write operations (add, delete, modify, modify DN): each runs in an LMDB write transaction of its
 * own on the {@link dev.larch.server.commit.WriteQueue}, off the event loop; writes that wait together
 * are nested in one shared transaction and its sync ({@link dev.larch.server.commit.GroupCommit}).
 */
package dev.larch.server.write;
