/**
 * The integrations bundle's entry (`dist/integrations.js`), loaded on first use by `register.ts`:
 * the chat participant's handler and the language model tools.
 */
export { chatFollowups, handleChat, type ChatExchange } from './chat';
export { tool } from './tools';
