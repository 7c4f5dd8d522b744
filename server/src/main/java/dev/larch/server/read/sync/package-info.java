/**
 * The provider side of LDAP content synchronization (RFC 4533, OpenLDAP's syncrepl): a search with the
 * Sync Request control, served as a refresh over one read snapshot ({@link
 * dev.larch.server.read.SyncRefresh}) and, in refreshAndPersist mode, followed by every later change
 * as a persistent search ({@link dev.larch.server.read.psearch.PersistentSearches#startShaped}).
 *
 * <p>Depends on {@code read}, {@code read.psearch}, {@code sync} (the protocol's vocabulary), {@code
 * csn} and the store's change log; nothing depends on it but the search handler.
 */
package dev.larch.server.read.sync;
