/**
 * The classes at the agent jar's root besides the launcher: the isolated class loader over
 * {@code inst/**.classdata} and the CLI launcher. JDK types only.
 */
package dev.spool.agent.boot;
