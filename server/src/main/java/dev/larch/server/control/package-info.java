/**
 * Request controls that more than one operation honours: the assertion control (RFC 4528; search,
 * compare, modify, modify DN, delete) and the pre-read and post-read controls (RFC 4527; add, modify,
 * modify DN, delete), with the factory that lets the encoder send a response control whose value was
 * encoded here. The read and write packages use these; this package may depend only on the rooms below
 * them ({@code access}, {@code directory}, {@code entry}, {@code error}, {@code protocol},
 * {@code search}, {@code store}), never on {@code read}, {@code write} or the operations' handlers,
 * which would close a cycle ({@code PackageCyclesTest}).
 */
package dev.larch.server.control;
