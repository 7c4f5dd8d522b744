/**
 * Referral objects and the ManageDsaIT control (RFC 3296): which operations a referral object turns
 * into a {@code referral} result, and the URLs of referrals and search continuation references.
 */
package dev.larch.server.referral;
