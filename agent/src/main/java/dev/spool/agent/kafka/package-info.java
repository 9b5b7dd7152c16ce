/**
 * The agent's side of Kafka shipping: finding and loading {@code spool-kafka.jar} on demand.
 * The shipper itself (tailing, producing, checkpoints, the Shipper MBean) is in that jar,
 * package {@code dev.spool.kafka}; see docs/ARCHITECTURE.md "Kafka shipping".
 */
package dev.spool.agent.kafka;
