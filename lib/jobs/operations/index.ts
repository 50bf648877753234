export { retryDeadJobs, type RetryDeadJobsInput } from "./retry-dead-jobs";
export { dismissDeadJobs, type DismissDeadJobsInput } from "./dismiss-dead-jobs";
