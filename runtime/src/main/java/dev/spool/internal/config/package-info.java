/**
 * Spool's configuration: every key of SPEC's table ({@link dev.spool.internal.config.ConfigKey}), its
 * default, what it accepts, and the sources it is read from ({@link dev.spool.internal.config.SpoolConfig}).
 * Loading never throws for bad input: each problem is one line to a handler, and the default is
 * used.
 */
package dev.spool.internal.config;
