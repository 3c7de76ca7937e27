import { graphql } from './gql/index.ts';

/**
 * A space's events as they happen (a subscription over Server-Sent Events),
 * typed by the GraphQL Code Generator: `SpaceEventsSubscription` (a union:
 * switch on `__typename`) and `SpaceEventsSubscriptionVariables`.
 */
export const SpaceEvents = graphql(`
  subscription SpaceEvents($spaceId: ID!) {
    spaceEvents(spaceId: $spaceId) {
      __typename
      ... on Event {
        id
        kind
        at
      }
      ... on ChangeRequestEvent {
        changeRequest {
          number
          subject
          status
        }
      }
      ... on CommentEvent {
        commentId
        comment {
          body
        }
      }
      ... on SpaceContentEvent {
        revision {
          id
        }
      }
    }
  }
`);
