/**
 * Change sequence numbers as OpenLDAP writes them ({@code entryCSN}, {@code contextCSN}, the CSNs in
 * sync cookies): {@link dev.larch.server.csn.Csn} (one stamp), {@link dev.larch.server.csn.CsnClock}
 * (this server's strictly increasing stamps) and {@link dev.larch.server.csn.CsnVector} (the highest
 * stamp per server ID).
 *
 * <p>Depends on the JDK only, so that the store, the write path and the sync protocol can all use it.
 */
package dev.larch.server.csn;
