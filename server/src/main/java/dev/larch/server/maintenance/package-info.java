/**
 * Work an operator does on a store rather than a client over LDAP: checking it ({@link
 * dev.larch.server.maintenance.StoreVerifier}), copying it while it serves ({@link
 * dev.larch.server.maintenance.Backup}) and bringing a copy back ({@link
 * dev.larch.server.maintenance.Restore}). Each reads the store through a read-only open, so none can
 * change a running server's data.
 */
package dev.larch.server.maintenance;
