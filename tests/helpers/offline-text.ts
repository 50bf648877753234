// Request texts for the offline distiller and retrieval tests (unit and integration): vague and
// coherent trajectory classes, and an agent's skills with 20 labeled (query, skill) pairs.

/** Classes whose queries share no intent: the template distiller answers INSUFFICIENT. */
export const VAGUE_CLASSES = [
  ["hello there", "do the thing", "sure, go ahead", "ok thanks", "can you help me?"],
  ["hi", "what's up?", "hey, you there?", "yes please", "go on"],
  ["do it", "do that again", "the usual please", "same as before", "just do it now"],
  ["help me with something", "I need some help", "can you check this?", "what about that one?", "please handle it"],
  ["tell me about cats", "what's the weather tomorrow", "play some jazz", "book a table for two", "translate this paragraph"],
];

/** Coherent classes and the skill name each must get (never from ids, e-mail addresses or names). */
export const COHERENT_CLASSES: [string, string[]][] = [
  ["refund-order", ["Refund order A1", "Please refund my order B7", "I want a refund for order C3", "refund order D4 please", "Can you refund order E5?"]],
  ["reset-password", ["Reset my password, I'm pat@example.com", "password reset for sam@example.com", "I forgot my password, reset it (lee@example.com)", "Reset password for kim@example.com", "please reset the password of ann@example.com"]],
  ["change-shipping-address-order", ["Change the shipping address of order A1", "Update shipping address for order B2 to 5 Main St", "change my shipping address on order C3", "I need to change the shipping address for order D4", "shipping address change for order E5"]],
  ["invoice", ["Send me invoice INV-1001", "I need a copy of invoice INV-1002", "email invoice INV-1003 to me", "resend invoice INV-1004", "where is invoice INV-1005?"]],
  ["cancel-subscription", ["Cancel the subscription for Maria", "Cancel Bob's subscription", "please cancel the subscription of Priya Shah", "cancel subscription for Tom, account 4410", "I want to cancel the subscription for Lee"]],
];

/** One support agent's skills: the name the distiller gives each, the tool its class calls, its argument keys and trigger queries. */
export const RETRIEVAL_CLASSES = {
  refund: { name: "refund-order", tool: "issue_refund", keys: "order_id, amount", queries: ["Refund order A1", "Please refund my order B7", "I want a refund for order C3", "refund order D4 please", "Can you refund order E5?"] },
  track: { name: "track-package", tool: "track_parcel", keys: "tracking_id", queries: ["Track my package 1Z999", "Where is my package P-77?", "track package P-12 please", "Can you track parcel P-3 for me", "tracking status of package P-9"] },
  cancel: { name: "cancel-subscription", tool: "cancel_subscription", keys: "account_id", queries: ["Cancel my subscription", "Please cancel the subscription on account 4410", "I want to cancel my subscription today", "cancel subscription for acct 77", "How do I cancel my subscription?"] },
  password: { name: "reset-password", tool: "reset_password", keys: "email", queries: ["Reset my password", "I forgot my password, reset it please", "password reset for pat@example.com", "Can you reset the password of sam@example.com", "reset password please"] },
  address: { name: "change-shipping-address-order", tool: "update_address", keys: "order_id, address", queries: ["Change the shipping address of order A1", "Update shipping address for order B2", "change my shipping address on order C3", "I need to change the shipping address for order D4", "shipping address change for order E5"] },
  invoice: { name: "send-invoice", tool: "send_invoice", keys: "invoice_id", queries: ["Send me invoice INV-1001", "Please send invoice INV-1002 again", "email me a copy of invoice INV-1003", "resend invoice INV-1004", "Can you send the invoice INV-1005"] },
};
export type SkillKey = keyof typeof RETRIEVAL_CLASSES;

/** The same agent's other recent requests, about orders and accounts, that no skill covers. */
export const UNCOVERED_QUERIES = [
  "Where is my order Z1?", "What is the status of my order Q2", "Has order Q3 shipped yet?", "order Q4 status", "Is my order Q5 delayed",
  "Cancel order Q6", "Can I cancel order Q7", "What is my account balance", "Update my account email", "Close my account",
];

export const PARAPHRASES: [string, SkillKey][] = [
  ["Could you refund my order Z9?", "refund"],
  ["refunds for order K2 please", "refund"],
  ["Where's my package P-5?", "track"],
  ["please track package P-88", "track"],
  ["cancel my subscription please", "cancel"],
  ["I forgot my password", "password"],
  ["please reset my password", "password"],
  ["Update the shipping address on order K2", "address"],
  ["Send me a copy of invoice INV-9", "invoice"],
  ["resend my invoice INV-7", "invoice"],
];

/** Requests that share a generic noun or verb with the skill but ask for something else. */
export const NEAR_MISSES: [string, SkillKey][] = [
  ["Where is my order Z9?", "refund"],
  ["Cancel order A1", "refund"],
  ["Cancel my package delivery", "track"],
  ["What is the status of my order Q2", "track"],
  ["Cancel order Q7", "cancel"],
  ["Change my password", "password"],
  ["Reset my account settings", "password"],
  ["Change my subscription plan", "cancel"],
  ["What is my shipping cost", "address"],
  ["Pay invoice INV-9", "invoice"],
];
