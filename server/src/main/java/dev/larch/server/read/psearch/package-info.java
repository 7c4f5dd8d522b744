/**
 * Persistent search (draft-ietf-ldapext-psearch-03) with entry change notification: who waits for
 * changes ({@link dev.larch.server.read.psearch.PersistentSearches}), what each may see of a change
 * ({@link dev.larch.server.read.psearch.ChangeView}) and how notifications reach a client that may be
 * slower than the writer ({@link dev.larch.server.read.psearch.Subscriber}).
 */
package dev.larch.server.read.psearch;
