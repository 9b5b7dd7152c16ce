/**
 * Spool's configuration: every key of SPEC's table ({@link dev.spool.config.ConfigKey}), its
 * default, what it accepts, and the sources it is read from ({@link dev.spool.config.SpoolConfig}).
 * Loading never throws for bad input: each problem is one line to a handler, and the default is
 * used.
 */
package dev.spool.config;
