package dev.larch.server.replica;

import dev.larch.server.csn.Csn;
import org.apache.directory.api.ldap.model.entry.Entry;

/**
 * An entry a provider sent, ready to store: schema-aware, checked against the local schema, without
 * the values this server computes itself ({@code memberOf}).
 *
 * @param entry its DN and attributes, stamps as sent
 * @param uuid its entryUUID, 16 bytes
 * @param csn its entryCSN
 */
record IncomingEntry(Entry entry, byte[] uuid, Csn csn) {}
