/**
 * The vocabulary of LDAP Content Synchronization (RFC 4533) as OpenLDAP 2.5's syncrepl speaks it: the
 * Sync Request control a consumer sends ({@link dev.larch.server.sync.SyncRequest}), the cookies in
 * slapd's grammar ({@link dev.larch.server.sync.SyncCookie}), and the Sync State and Sync Done controls
 * and Sync Info intermediate responses a provider sends ({@link dev.larch.server.sync.SyncResponses}),
 * with entryUUIDs as 16 raw bytes ({@link dev.larch.server.entry.EntryUuids}) and present-phase batching
 * ({@link dev.larch.server.sync.SyncIdSetBatcher}). No store access and no session state: the sync search
 * handler uses these.
 *
 * <p>May depend on {@link dev.larch.server.csn}, the Apache Directory LDAP API (its extras codec holds the
 * value classes and factories) and Netty buffers; nothing else of the server.
 */
package dev.larch.server.sync;
